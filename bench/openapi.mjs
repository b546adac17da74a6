// An OpenAPI 3.1 document for the same operations as a contract, for measuring an OpenAPI-to-MCP
// generator on equal terms: the contract's summary, description, parameters (path, query, header),
// JSON body and success response, with the contract's types as components. Nothing the contract does
// not say is added; behaviour the contract states beyond HTTP (effects, previews, pagination, error
// recovery) has no place in OpenAPI and is not carried.

const COMPONENTS = "#/components/schemas/";

/** Rewrite the model's local references (`#/$defs/X`) to components; collect the definitions. */
function lift(schema, components) {
  if (Array.isArray(schema)) return schema.map((s) => lift(s, components));
  if (schema === null || typeof schema !== "object") return schema;
  const out = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "$defs") {
      for (const [name, def] of Object.entries(v)) components[name] ??= lift(def, components);
    } else if (k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")) out.$ref = COMPONENTS + v.slice("#/$defs/".length);
    else if (k === "enum" || k === "const" || k === "default" || k === "examples") out[k] = v;
    else out[k] = lift(v, components);
  }
  return out;
}

/** The property schemas of an operation's input object (its root may be a reference). */
function inputProperties(op) {
  const root = op.input.schema;
  let node = root;
  for (let i = 0; i < 8 && node && typeof node.$ref === "string"; i++) node = root.$defs?.[node.$ref.slice("#/$defs/".length)];
  return { properties: node?.properties ?? {}, required: new Set(node?.required ?? []), defs: root.$defs ?? {} };
}

export function contractToOpenApi(model) {
  const components = {};
  const paths = {};
  for (const op of model.operations.filter((o) => o.mcp.exposed)) {
    const { properties, required, defs } = inputProperties(op);
    const withDefs = (schema) => lift({ ...schema, ...(Object.keys(defs).length ? { $defs: defs } : {}) }, components);
    const parameters = [];
    const body = { type: "object", properties: {}, required: [] };
    for (const b of op.http.bindings) {
      const schema = withDefs(properties[b.field] ?? {});
      delete schema.$defs;
      if (b.in === "body") {
        body.properties[b.name] = schema;
        if (required.has(b.field)) body.required.push(b.name);
      } else {
        const { description, ...rest } = schema;
        parameters.push({ name: b.name, in: b.in, required: b.in === "path" || required.has(b.field), ...(description ? { description } : {}), schema: rest });
      }
    }
    const output = lift(op.output.schema, components);
    delete output.$defs;
    const operation = {
      operationId: op.names.id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(Object.keys(body.properties).length
        ? { requestBody: { required: body.required.length > 0, content: { "application/json": { schema: body.required.length ? body : { type: "object", properties: body.properties } } } } }
        : {}),
      responses: { [String(op.http.successStatus)]: { description: "Success.", content: { "application/json": { schema: output } } } },
    };
    paths[op.http.path] ??= {};
    paths[op.http.path][op.http.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: { title: model.title, version: model.version, description: model.description },
    servers: [{ url: model.transport.baseUrl }],
    paths,
    components: { schemas: components, securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    security: [{ bearer: [] }],
  };
}
