import { describe, expect, it } from "vitest";
import type { NewNotification } from "../../notifications/notifications.ports";
import type { NotifyDeps } from "../../notifications/notify";
import { authorWarned } from "./author-warned";
import { reportClosed } from "./report-closed";

const userId = "0193a5b2-7c1e-7d4f-8a9b-0c1d2e3f4a5b";
const reportId = "0193a5b2-7c1e-7d4f-8a9b-0c1d2e3f4a5c";
const targetId = "0193a5b2-7c1e-7d4f-8a9b-0c1d2e3f4a5d";
const at = new Date("2026-12-12T10:00:00Z");
const claimed = { id: "0193a5b2-7c1e-7d4f-8a9b-0c1d2e3f4a5e", attempts: 0, createdAt: at };

/** An inbox fake: rows by id (a redelivery writes nothing twice), no push provider. */
const inboxDeps = () => {
  const inbox = new Map<string, NewNotification>();
  const deps = {
    notifications: {
      addMany: async (rows: readonly NewNotification[]) => {
        for (const row of rows) {
          if (!inbox.has(row.id)) {
            inbox.set(row.id, row);
          }
        }

        return rows.length;
      },
    },
    devices: {},
    push: undefined,
    clock: { now: () => at },
  } as unknown as NotifyDeps;

  return { deps, inbox };
};

describe("moderation.author_warned", () => {
  it("tells the owner once, with the target type and the categories only", async () => {
    const { deps, inbox } = inboxDeps();
    const payload = {
      user_id: userId,
      target_type: "comment" as const,
      categories: ["harassment" as const, "spam" as const],
    };
    const event = {
      ...authorWarned.event(userId, payload),
      ...claimed,
      payload: authorWarned.payload.parse(payload),
    };
    await authorWarned.deliver(deps, event);
    await authorWarned.deliver(deps, event);
    const rows = [...inbox.values()];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId,
      kind: "moderation.author_warned",
      data: { target_type: "comment", categories: ["harassment", "spam"] },
    });
    expect(rows[0]?.body).toContain("one of your comments (harassment, spam)");
  });
});

describe("report.closed", () => {
  const deliver = async (payload: Parameters<typeof reportClosed.payload.parse>[0]) => {
    const { deps, inbox } = inboxDeps();
    const parsed = reportClosed.payload.parse(payload);
    await reportClosed.deliver(deps, {
      ...reportClosed.event(reportId, parsed),
      ...claimed,
      payload: parsed,
    });

    return [...inbox.values()];
  };

  it("names the target type and the decision for a report of any target", async () => {
    const [row] = await deliver({
      report_id: reportId,
      reporter_id: userId,
      target_type: "listing",
      target_id: targetId,
      status: "resolved",
      action: "hide",
    });
    expect(row).toMatchObject({
      userId,
      body: "The listing you reported was hidden.",
      data: { report_id: reportId, target_type: "listing", target_id: targetId },
    });
    const [ended] = await deliver({
      report_id: reportId,
      reporter_id: userId,
      target_type: "meeting",
      target_id: targetId,
      status: "resolved",
      action: "delete",
    });
    expect(ended?.body).toBe("The meeting you reported was ended.");
  });

  it("still delivers an event of the previous release (a moment and its action, no target)", async () => {
    const [row] = await deliver({
      report_id: reportId,
      reporter_id: userId,
      moment_id: targetId,
      status: "resolved",
      action: "hide_moment",
    });
    expect(row).toMatchObject({ body: "The moment you reported was hidden.", data: { moment_id: targetId } });
  });
});
