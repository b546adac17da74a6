// One SDK call in a process of its own (the "second process" of the lost-response tests).
// argv[2]: JSON { sdk, clientClass, method, input, options }; prints { ok, result } or { ok: false, error }.
const { sdk, clientClass, method, input, options } = JSON.parse(process.argv[2]);
const module = await import(sdk);
const client = new module[clientClass](options);
try {
  const result = await client[method](input);
  process.stdout.write(JSON.stringify({ ok: true, result }));
} catch (e) {
  process.stdout.write(JSON.stringify({ ok: false, error: typeof e.toJSON === "function" ? e.toJSON() : { message: String(e) } }));
} finally {
  client.close();
}
