/**
 * Each test file starts with a redactor that knows no secret, as a fresh process does. Files of the
 * `shared` project (vitest.config.ts) run one after another in one module graph: without this, the
 * keys an earlier file's commands registered would still be redacted in a later file, and a
 * "the key is not in the output" check there would pass although its own command never registered
 * the key. Setup files run again before every test file, in either project.
 */
import { redactor } from "../../src/core/redact.js";

redactor.forget();
