import { reportExportColumns } from "@agora/contracts/administration";
import type { ReportExportRow } from "@agora/domain/administration/administration.types";
import { safeError } from "@agora/process/logging";
import { stringify } from "csv-stringify/sync";
import type { Logger } from "pino";

/** The export's columns, in order (the contracts' list): every field of a row, named as in the API. */
const columns = reportExportColumns satisfies readonly (keyof ReportExportRow)[];

// A row field missing from the columns fails to compile here.
type Missing = Exclude<keyof ReportExportRow, (typeof columns)[number]>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

const options = {
  columns: [...columns],
  // Prefixes `'` to a cell starting with = + - @ tab or CR (and their full-width forms).
  escape_formulas: true,
  cast: {
    date: (value: Date) => value.toISOString(),
    boolean: (value: boolean) => (value ? "true" : "false"),
  },
};

/**
 * `batches` as a CSV byte stream: a header row, then each batch of rows as one chunk (RFC 4180
 * quoting by csv-stringify, formulas neutralised, dates RFC 3339). The stream pulls: a batch is read
 * from the database only when the client has taken the previous one, so memory holds one batch
 * whatever the export's size. A failure mid-stream is logged (its details never reach the client)
 * and errors the stream, which cuts the response short; a client that goes away stops the reads.
 */
export const reportsCsv = (
  batches: AsyncIterator<ReportExportRow[]>,
  logger: Logger,
): ReadableStream<Uint8Array> => {
  const encoder = new TextEncoder();

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(stringify([columns as readonly string[]])));
      },
      async pull(controller) {
        try {
          const next = await batches.next();
          if (next.done) {
            controller.close();
          } else {
            controller.enqueue(encoder.encode(stringify(next.value, options)));
          }
        } catch (error) {
          logger.error({ err: safeError(error) }, "reports export failed mid-stream");
          controller.error(new Error("export failed"));
        }
      },
      async cancel() {
        await batches.return?.();
      },
    },
    { highWaterMark: 0 },
  );
};
