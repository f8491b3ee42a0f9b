import { Readable } from "node:stream";
import type { ReportExportRow } from "@agora/domain/administration/administration.types";
import { stringify } from "csv-stringify";
import type { Logger } from "pino";

/** The export's columns, in order: every field of a row, named as in the API. */
export const REPORT_EXPORT_COLUMNS = [
  "report_id",
  "created_at",
  "status",
  "reason",
  "note",
  "moment_id",
  "moment_author_id",
  "moment_hidden",
  "reporter_id",
  "reviewer_id",
  "resolution_note",
  "reviewed_at",
  "resolved_at",
] as const satisfies readonly (keyof ReportExportRow)[];

// A row field missing from the columns fails to compile here.
type Missing = Exclude<keyof ReportExportRow, (typeof REPORT_EXPORT_COLUMNS)[number]>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

/**
 * `rows` as a CSV byte stream: a header row, RFC 4180 quoting, formulas neutralised
 * (`escape_formulas` prefixes `'` to a cell starting with = + - @ tab or CR), dates in RFC 3339.
 * Back-pressure flows from the client to the database reads: a row is read when the last is sent.
 * A failure mid-stream is logged (without its details reaching the client) and ends the stream.
 */
export const reportsCsv = (
  rows: AsyncIterable<ReportExportRow>,
  logger: Logger,
): ReadableStream<Uint8Array> => {
  const csv = stringify({
    header: true,
    columns: [...REPORT_EXPORT_COLUMNS],
    escape_formulas: true,
    cast: {
      date: (value) => value.toISOString(),
      boolean: (value) => (value ? "true" : "false"),
    },
  });
  const source = Readable.from(rows);
  source.on("error", (error) => {
    logger.error({ err: error }, "reports export failed mid-stream");
    csv.destroy(error);
  });
  // A client that goes away stops the reads too (the generator returns, no batch is left pending).
  csv.on("close", () => source.destroy());
  source.pipe(csv);

  return Readable.toWeb(csv) as ReadableStream<Uint8Array>;
};
