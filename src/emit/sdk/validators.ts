import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import type { ContractModel, JsonSchema } from "../../model/types.js";
import { escapeInvisible, generatedHeader } from "../shared/literals.js";

const addFormats = addFormatsModule.default;
const standaloneCode = standaloneCodeModule.default;

/** Export name of the validator of one schema slot of an operation. */
export function validatorName(camel: string, slot: "Input" | "Output" | "Preview"): string {
  return `validate${camel.charAt(0).toUpperCase()}${camel.slice(1)}${slot}`;
}

/**
 * `sdk/validators.js` + `.d.ts`: every input, output and preview schema compiled at generation time
 * into standalone ajv code, so no schema is compiled when the SDK starts.
 */
export function emitValidators(model: ContractModel): { js: string; dts: string } {
  const ajv = new Ajv2020({ allErrors: true, strict: false, code: { source: true, esm: true, lines: true, optimize: 1 } });
  addFormats(ajv);
  ajv.addKeyword({ keyword: "x-unit", schemaType: "string" });
  const exports: Record<string, string> = {};
  const add = (name: string, schema: JsonSchema) => {
    ajv.addSchema(schema as object, name);
    exports[name] = name;
  };
  for (const op of model.operations) {
    add(validatorName(op.names.camel, "Input"), op.input.schema);
    add(validatorName(op.names.camel, "Output"), op.output.schema);
    if (op.preview?.output) add(validatorName(op.names.camel, "Preview"), op.preview.output.schema);
  }
  const code = standaloneCode(ajv, exports);
  const header = generatedHeader(model.name, model.version);
  const dts = `${header}import type { Validator } from "./runtime/client.js";\n\n${Object.keys(exports)
    .map((name) => `export declare const ${name}: Validator;`)
    .join("\n")}\n`;
  // ajv writes schema strings (enum values, property names) with JSON escaping only.
  return { js: escapeInvisible(`${header}${toEsmImports(code)}`), dts };
}

/**
 * ajv's ESM output still calls `require()` for its runtime helpers and format functions. A
 * `require` made with `createRequire` loads those CommonJS modules exactly as ajv expects, in Node
 * and in bundlers alike (a default import would depend on each loader's CommonJS interop).
 */
function toEsmImports(code: string): string {
  const body = code.replace(/^"use strict";\n/, "");
  if (!/\brequire\(/.test(body)) return body;
  return `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${body}`;
}
