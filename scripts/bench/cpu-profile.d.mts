export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber?: number;
  scriptId?: string;
}
export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples?: number[];
  timeDeltas?: number[];
  startTime?: number;
  endTime?: number;
}
export interface Summary {
  cpuUs: number;
  idleUs: number;
  threads: { wallUs: number; cpuUs: number }[];
  byPackage: [string, number][];
  byStage: [string, number][];
  byFunction: [string, number][];
}
export declare function selfTimes(profile: CpuProfile): Map<number, number>;
export declare function packageOf(callFrame: CallFrame, root: string): string;
export declare function fileOf(callFrame: CallFrame, root: string): string;
export declare function stageOfFile(rel: string): string | null;
export declare function stageOfStack(stack: CallFrame[], root: string): string;
export declare function summarise(profiles: CpuProfile[], root: string): Summary;
