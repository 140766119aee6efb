// The types of validators.generated.js (scripts/validators-source.ts generates it; this file is written by hand).
import type { ValidateFunction } from "ajv";

export declare const config: ValidateFunction;
export declare const scenario: ValidateFunction;
export declare const researchCycle: ValidateFunction;
export declare const tradecat: ValidateFunction;
/** Each tool's arguments (the current catalogue), by tool name. */
export declare const tools: Readonly<Record<string, ValidateFunction>>;
