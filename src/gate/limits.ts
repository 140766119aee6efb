/** The gate's limit keys of a larger object: defined with the Limits schema in core. */
export { pickLimits } from "../core/limits.js";
