// A bare relay for bench/mcp-http.mjs: one HTTP hop in front of the platform that does nothing but
// call the generated SDK and return its result as JSON. It has the MCP server's process and hop
// without MCP, so it shows what any server in between costs on this machine (the floor an MCP
// server cannot go below). Usage: node bench/relay-server.mjs <built sdk/index.js> (env: base URL, token).
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

const { IncidentsClient } = await import(pathToFileURL(process.argv[2]).href);
const sdk = new IncidentsClient({ baseUrl: process.env.INCIDENTS_BASE_URL, token: process.env.INCIDENTS_TOKEN, journal: false });
const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    const result = await sdk.getIncident(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    const body = JSON.stringify(result);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
  } catch (e) {
    res.writeHead(500).end(String(e));
  }
});
server.listen(0, "127.0.0.1", () => console.error(`relay at http://127.0.0.1:${server.address().port}/`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
