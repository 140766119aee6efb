/**
 * What the compiled schema validators call at run time, beyond ajv's own runtime: the string
 * formats our schemas name (the standard ones of ajv-formats plus `iana-timezone` and `iso-4217`)
 * and TradeCat's RegExp engine. The same objects serve the validators generated at build time
 * (src/config/validators.generated.js refers to them by name) and those compiled at run time.
 */
import type { Format } from "ajv";
import type { RegExpEngine } from "ajv/dist/types/index.js";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { IANAZone } from "luxon";
import { isIsoCurrency } from "../core/money.js";

/** The formats our schemas use, by name (a schema naming any other format does not compile: ajv's strict mode). */
export const SCHEMA_FORMATS: Readonly<Record<string, Format>> = {
  date: fullFormats.date,
  "date-time": fullFormats["date-time"],
  uri: fullFormats.uri,
  "iana-timezone": { type: "string", validate: (s: string) => IANAZone.isValidZone(s) },
  "iso-4217": { type: "string", validate: isIsoCurrency },
};

/**
 * TradeCat's schema patterns are Python regular expressions that open with the `(?i)` flag, which
 * JavaScript cannot parse: this engine reads a leading `(?i)` as the `i` flag (the pattern compiled
 * without it, with flags `u` + `i`); any other pattern compiles as is.
 */
export const pythonFlagRegExp: RegExpEngine = Object.assign(
  (pattern: string, u: string) => (pattern.startsWith("(?i)") ? new RegExp(pattern.slice(4), `${u}i`) : new RegExp(pattern, u)),
  { code: "__twPythonFlagRegExp" },
);
