// The contract suite's second process (see proxy.ts, retryFromSecondProcess): reads one HTTP request
// as JSON on stdin — { method, url, headers: [[name, value]], body: base64, limits } — sends it once
// and prints the answer as JSON — { status, headers: [[name, value]], body } — on stdout. Plain
// JavaScript, so a bare `node` runs it in a few milliseconds; it imports nothing of the suite on
// purpose. A redirect is the answer (it is not followed: the request carries the credential), and the
// suite's limits hold: the request's time limit, and the body's size after decompression.
let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;
const request = JSON.parse(text);
const body = request.body ? Buffer.from(request.body, "base64") : undefined;
try {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    redirect: "manual",
    signal: AbortSignal.timeout(request.limits.requestTimeoutMs),
    ...(body && body.length > 0 ? { body } : {}),
  });
  const chunks = [];
  let total = 0;
  for await (const chunk of response.body ?? []) {
    total += chunk.byteLength;
    if (total > request.limits.maxResponseBytes) throw new Error(`the response body is larger than the limit of ${request.limits.maxResponseBytes} bytes`);
    chunks.push(chunk);
  }
  const answer = new TextDecoder().decode(Buffer.concat(chunks));
  process.stdout.write(JSON.stringify({ status: response.status, headers: [...response.headers], body: answer }));
} catch (e) {
  // One line naming the cause (the parent reports it), never a stack.
  const cause = e?.cause?.code ?? e?.cause?.message ?? "";
  process.stderr.write(`${e?.name === "TimeoutError" ? `no answer within ${request.limits.requestTimeoutMs} ms` : e?.message ?? String(e)}${cause ? ` (${cause})` : ""}\n`);
  process.exitCode = 1;
}
