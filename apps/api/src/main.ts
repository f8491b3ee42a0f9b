// Production entry: serves the API (run `pnpm agora migrate` before a deploy).
import { configOrExit } from "@agora/process/config-or-exit";
import { runServer } from "./server";

await runServer(configOrExit(), { prepare: false });
