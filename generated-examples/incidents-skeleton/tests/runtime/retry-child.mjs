// The contract suite's second process (see proxy.ts, retryFromSecondProcess): reads one HTTP request
// as JSON on stdin — { method, url, headers: [[name, value]], body: base64 } — sends it once and prints
// the answer as JSON — { status, headers: [[name, value]], body } — on stdout. Plain JavaScript, so a
// bare `node` runs it in a few milliseconds; it imports nothing of the suite on purpose.
let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;
const request = JSON.parse(text);
const body = request.body ? Buffer.from(request.body, "base64") : undefined;
const response = await fetch(request.url, {
  method: request.method,
  headers: request.headers,
  ...(body && body.length > 0 ? { body } : {}),
});
const answer = await response.text();
process.stdout.write(JSON.stringify({ status: response.status, headers: [...response.headers], body: answer }));
