import { describe, expect, it } from "vitest";
import { approvalStatuses } from "./marketplace.types";
import { ProviderApprovalWithdrawnError, requireProviderStanding } from "./provider-standing";

describe("provider standing (docs/safety.md, demoted providers)", () => {
  it.each(approvalStatuses.map((status) => ({ status, refused: status === "withdrawn" })))(
    "a $status profile is refused on provider paths: $refused",
    ({ status, refused }) => {
      const check = () => requireProviderStanding({ approvalStatus: status });
      if (refused) {
        expect(check).toThrow(ProviderApprovalWithdrawnError);
      } else {
        expect(check()).toEqual({ approvalStatus: status });
      }
    },
  );

  it("no profile is left to the path (404 or 403 there), not refused here", () => {
    expect(requireProviderStanding(null)).toBeNull();
  });

  it("the refusal is 403 forbidden", () => {
    expect(new ProviderApprovalWithdrawnError()).toMatchObject({ code: "forbidden" });
  });
});
