// `pnpm start`: applies migrations, seeds the catalog, then serves the API.
import { configOrExit } from "@agora/process/config-or-exit";
import { runServer } from "./server";

await runServer(configOrExit(), { prepare: true });
