import { Counter, type LabelValues, type Registry } from "prom-client";

/**
 * A Prometheus counter whose totals another part of the process keeps (a cache, a connection, the
 * log destination): each scrape copies them. `read` answers each series' labels and total since
 * the process started, or undefined for no series (the part is off).
 */
export const copiedCounter = <Label extends string = never>(
  registry: Registry,
  { name, help, labelNames = [] }: { name: string; help: string; labelNames?: readonly Label[] },
  read: () => ReadonlyArray<readonly [LabelValues<Label>, number]> | undefined,
): void => {
  new Counter<Label>({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, total] of read() ?? []) {
        this.inc(labels, total);
      }
    },
  });
};
