/** Arazzo 1.0 runtime expressions and simple conditions: what the generator checks and the suites evaluate. */
export { parseExpression, embedded, evaluate, fill, atPointer, type RuntimeExpression, type ExpressionScope } from "./expression.js";
export { parseCondition, holds, explain, expressionsIn, ConditionSyntaxError, type Condition } from "./condition.js";
export { parseJsonPath, queryJsonPath, JsonPathSyntaxError } from "./jsonpath.js";
