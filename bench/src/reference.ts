// The reference server: raw node:http (and, for database scenarios, raw `pg`) answering the
// same JSON as Agora, so each Agora figure can be read as a ratio measured in the same run.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

type Handler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

const send = (response: ServerResponse, status: number, payload: unknown) => {
  const body = JSON.stringify(payload);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  });
  response.end(body);
};

const envelope = (data: unknown) => ({
  success: true,
  data,
  meta: null,
  error: null,
  request_id: randomUUID(),
});

const routes = new Map<string, Handler>([
  ["GET /health", (_req, res) => send(res, 200, envelope({ status: "ok" }))],
  ["GET /api/v1", (_req, res) => send(res, 200, envelope({ name: "agora", version: "0.1.0" }))],
]);

const port = Number(process.argv[2] ?? process.env.PORT ?? 0);
const server = createServer((request, response) => {
  const path = (request.url ?? "/").split("?")[0];
  const handler = routes.get(`${request.method} ${path}`);
  if (!handler) {
    send(response, 404, { success: false });

    return;
  }
  Promise.resolve(handler(request, response)).catch(() => send(response, 500, { success: false }));
});
server.keepAliveTimeout = 5_000;
server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === "object" && address ? address.port : port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
