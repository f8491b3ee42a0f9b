import { connect } from "node:net";

/**
 * Whether a NATS server answers at `url` (NATS_URL's form: the first of comma-separated servers),
 * by its INFO line, within a second. For the realtime tests and the fan-out bench, which run their
 * NATS cases only when one does; never for the API, whose client reconnects on its own.
 */
export const natsAnswers = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url.split(",")[0] ?? url);
    const socket = connect({ host: hostname, port: Number(port || 4222) });
    socket.setTimeout(1_000);
    socket.once("data", (data) => {
      socket.destroy();
      resolve(String(data).startsWith("INFO"));
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
