/** Arazzo 1.0 runtime expressions and simple conditions: what the generator checks and the suites evaluate. */
export { parseExpression, embedded, evaluate, fill, atPointer, type RuntimeExpression, type ExpressionScope } from "./arazzo-expression.js";
export { parseCondition, holds, explain, expressionsIn, ConditionSyntaxError, type Condition } from "./arazzo-condition.js";
export { parseJsonPath, queryJsonPath, JsonPathSyntaxError } from "./arazzo-jsonpath.js";
