// An esbuild plugin that lets the CLI be bundled as one CommonJS file (scripts/build.mjs), which V8 can
// then load from a code cache (bin/load-cli.js). Two bundled ES modules use top-level await, which
// CommonJS has no form for; each is given a synchronous equivalent here:
// - Ink's reconciler awaits only when DEV=true (React devtools, whose package is never installed, and
//   Ink's own package.json): the devtools import fails as it does when the package is missing, and the
//   package name is given as a literal;
// - yoga-layout awaits the instantiation of its WebAssembly (base64 inside its Emscripten module): the
//   module is given Emscripten's `instantiateWasm` hook, which instantiates it synchronously, so the
//   layout engine is whole when `yoga-layout` finishes loading, as it was after the await. The bytes are
//   moved out of the Emscripten module's text into one string, so the bundle holds them once.
// It also puts the generated validators' groups into the bundle (see bundledValidators below).
// Each replacement must find the text it replaces: a dependency update that changes it fails the build.
import { readdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";

const YOGA_WASM = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;

function replaceOnce(text, from, to, file) {
  const at = typeof from === "string" ? text.indexOf(from) : text.search(from);
  if (at < 0) throw new Error(`scripts/commonjs-plugin.mjs: ${file} no longer holds ${String(from).slice(0, 60)}: review the replacement`);
  return text.replace(from, to);
}

function yogaEntry(wasmBase64) {
  return `import loadYoga from "../binaries/yoga-wasm-base64-esm.js";
import wrapAssembly from "./wrapAssembly.js";
const module = {
  instantiateWasm(imports, receiveInstance) {
    const bytes = Buffer.from(${JSON.stringify(wasmBase64)}, "base64");
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), imports);
    receiveInstance(instance);
    return instance.exports;
  },
};
// Emscripten fills \`module\` in synchronously when instantiateWasm answers at once; its promise is not needed.
loadYoga(module);
const Yoga = wrapAssembly(module);
export default Yoga;
export * from "./generated/YGEnums.js";
`;
}

/**
 * The generated validators' module with each group required by a literal path, so the group is in the
 * bundle (each initialised on first use, as before) and its compiled code in the code cache; the
 * generated text requires its groups by a computed path, which keeps them out of an ES-module bundle.
 */
function bundledValidators(path) {
  const text = readFileSync(path, "utf8");
  const dir = `${dirname(path)}/validators`;
  const groups = readdirSync(dir)
    .filter((f) => f.endsWith(".generated.cjs"))
    .map((f) => `  ${JSON.stringify(f.replace(".generated.cjs", ""))}: () => require(${JSON.stringify(`./validators/${f}`)}),`);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the generated module's own text, found as it is written
  const computed = "requireGroup(`./validators/${name}.generated.cjs`)";
  return `${replaceOnce(text, computed, "__twValidatorGroups[name]()", path)}\nconst __twValidatorGroups = {\n${groups.join("\n")}\n};\n`;
}

export const commonjsPlugin = {
  name: "tradewarden-commonjs",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]config[\\/]validators\.generated\.js$/ }, ({ path }) => ({ contents: bundledValidators(path), loader: "js" }));
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, ({ path }) => {
      let text = readFileSync(path, "utf8");
      text = replaceOnce(
        text,
        "await import('./devtools.js');",
        "throw Object.assign(new Error(\"Cannot find package 'react-devtools-core'\"), { code: 'ERR_MODULE_NOT_FOUND' });",
        path,
      );
      text = replaceOnce(text, "? await loadPackageJson()", "? { name: 'ink', version: undefined }", path);
      return { contents: text, loader: "js" };
    });
    build.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, ({ path }) => {
      const binary = `${dirname(path)}/../binaries/yoga-wasm-base64-esm.js`;
      const found = YOGA_WASM.exec(readFileSync(binary, "utf8"));
      if (!found) throw new Error(`scripts/commonjs-plugin.mjs: ${binary} no longer holds its WebAssembly as base64: review the replacement`);
      // The entry is replaced whole: only while it still awaits loadYoga() is it the entry this was written for.
      replaceOnce(readFileSync(path, "utf8"), "await loadYoga()", "", path);
      return { contents: yogaEntry(found[1]), loader: "js", resolveDir: dirname(path) };
    });
    build.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, ({ path }) => ({
      contents: replaceOnce(readFileSync(path, "utf8"), YOGA_WASM, '"data:application/octet-stream;base64,"', path),
      loader: "js",
    }));
  },
};
