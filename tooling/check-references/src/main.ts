// `node src/main.ts [ROOT]`: prints every dangling reference of the repository (the rules are in
// check-references.ts) and exits 1 when there is one.
import { fileURLToPath } from "node:url";
import { checkReferences, formatFinding } from "./check-references.ts";

const root = process.argv[2] ?? fileURLToPath(new URL("../../..", import.meta.url));
const findings = checkReferences(root);
for (const finding of findings) {
  process.stderr.write(`${formatFinding(finding)}\n`);
}
if (findings.length > 0) {
  process.stderr.write(
    `check-references: ${findings.length} dangling reference(s); fix the path or link, or mark an intentional example (see tooling/check-references/src/check-references.ts)\n`,
  );
  process.exit(1);
}
