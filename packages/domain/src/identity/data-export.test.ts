import { describe, expect, it } from "vitest";
import {
  type DataExport,
  exportDocument,
  exportObjectKey,
  exportStatusAt,
  secondsUntilNextExport,
} from "./data-export";

const at = (iso: string) => new Date(iso);
const ready: DataExport = {
  id: "0193A000-0000-7000-8000-000000000001",
  userId: "0193A000-0000-7000-8000-000000000002",
  status: "ready",
  requestedAt: at("2026-12-11T09:00:00Z"),
  readyAt: at("2026-12-11T09:01:00Z"),
  expiresAt: at("2026-12-12T09:01:00Z"),
  objectKey: "exports/x/y.json",
  sizeBytes: 10,
};

describe("data exports", () => {
  it("allows the next request 24 hours after the newest, rounding the wait up", () => {
    const requested = at("2026-12-11T09:00:00Z");
    expect(secondsUntilNextExport(requested, at("2026-12-11T09:00:00Z"))).toBe(86_400);
    expect(secondsUntilNextExport(requested, at("2026-12-12T08:59:59.500Z"))).toBe(1);
    expect(secondsUntilNextExport(requested, at("2026-12-12T09:00:00Z"))).toBe(0);
    expect(secondsUntilNextExport(requested, at("2026-12-13T09:00:00Z"))).toBe(0);
  });

  it("sees a ready export past its expiry as expired", () => {
    expect(exportStatusAt(ready, at("2026-12-12T09:00:59Z"))).toBe("ready");
    expect(exportStatusAt(ready, at("2026-12-12T09:01:00Z"))).toBe("expired");
    expect(exportStatusAt({ ...ready, status: "pending", expiresAt: null }, at("2027-01-01T00:00:00Z"))).toBe(
      "pending",
    );
  });

  it("keys the object under the user, lower-cased, and writes the format and time", () => {
    expect(exportObjectKey(ready.userId, ready.id)).toBe(
      "exports/0193a000-0000-7000-8000-000000000002/0193a000-0000-7000-8000-000000000001.json",
    );
    const empty = {
      user: { id: "u" },
      provider: null,
      listings: [],
      orders: [],
      payments: [],
      messages: [],
      moments: [],
      comments: [],
      notifications: [],
      media: [],
    };
    const document = JSON.parse(new TextDecoder().decode(exportDocument(empty, at("2026-12-11T09:00:00Z"))));
    expect(document).toMatchObject({
      format: "agora-export/1",
      generated_at: "2026-12-11T09:00:00.000Z",
      user: { id: "u" },
    });
  });
});
