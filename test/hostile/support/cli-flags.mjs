// Drives every command of a generated CLI through its input flags, with a client that records the
// input it is handed: once with only the required flags, once with every flag. The input must hold
// exactly the fields whose flags were given, as own properties with the parsed values — a field
// named like an Object.prototype member (`constructor`, `__proto__`) must neither appear when
// omitted nor lose its value when given. Shared by properties.test.ts (contractgen's own CLI
// runtime, in process) and load-output.mjs (a generated package's built runtime).

/** A valid command-line value for a flag and the value the CLI must pass on for it. */
function scalar(type, flag) {
  if (Array.isArray(flag.enum) && flag.enum.length > 0) return { raw: String(flag.enum[0]), value: flag.enum[0] };
  if (type === "boolean") return { raw: "true", value: true };
  if (type === "string") return { raw: `v-${flag.flag}`, value: `v-${flag.flag}` };
  const n =
    flag.minimum ??
    (flag.exclusiveMinimum !== undefined ? Math.floor(flag.exclusiveMinimum) + 1 : (flag.maximum ?? (flag.exclusiveMaximum !== undefined ? Math.ceil(flag.exclusiveMaximum) - 1 : 1)));
  const value = type === "integer" ? Math.ceil(n) : n;
  return { raw: String(value), value };
}

export function flagArgument(flag) {
  if (flag.type === "array") {
    const item = scalar(flag.itemType ?? "string", flag);
    return { args: [`--${flag.flag}`, item.raw], value: [item.value] };
  }
  const one = scalar(flag.type, flag);
  return { args: [`--${flag.flag}`, one.raw], value: one.value };
}

/** Own keys and values of what the command handed the client, as [key, JSON] pairs sorted by key. */
function ownEntries(input) {
  return Reflect.ownKeys(input)
    .map((k) => [String(k), JSON.stringify(input[k])])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Run each command twice; returns the problems found (empty when every field's value reached the
 * client exactly as given). `runCli` is the runtime's, `commands` its command descriptions.
 */
export async function exerciseFlags(runCli, commands, name = "hostile") {
  const problems = [];
  for (const command of commands) {
    for (const which of ["required", "all"]) {
      const flags = command.flags.filter((f) => which === "all" || f.required);
      const args = [command.name];
      const expected = [];
      for (const flag of flags) {
        const a = flagArgument(flag);
        args.push(...a.args);
        expected.push([flag.field, JSON.stringify(a.value)]);
      }
      expected.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const inputs = [];
      const record = (input) => {
        inputs.push(input);
        return Promise.resolve({ ok: true });
      };
      const client = { close() {} };
      for (const m of [command.sdkMethod, command.previewMethod, command.allMethod]) if (m) Object.defineProperty(client, m, { value: record, enumerable: true });
      let out = "";
      const code = await runCli(
        { name, version: "0.0.0", description: "", tokenEnv: null, commands, createClient: () => client },
        args,
        { stdout: (t) => (out += t), stderr: (t) => (out += t), stdin: () => "{}" },
      );
      const where = `cli ${command.name} (${which} flags)`;
      if (code !== 0) {
        problems.push(`${where}: exit ${code}: ${out.slice(0, 300)}`);
        continue;
      }
      if (inputs.length !== 1) {
        problems.push(`${where}: ${inputs.length} calls`);
        continue;
      }
      const input = inputs[0];
      if (Object.getPrototypeOf(input) !== Object.prototype) problems.push(`${where}: the input's prototype was replaced`);
      const got = JSON.stringify(ownEntries(input));
      if (got !== JSON.stringify(expected)) problems.push(`${where}: input ${got}, expected ${JSON.stringify(expected)}`.slice(0, 600));
    }
  }
  return problems;
}
