import type { PaymentsDeps } from "@agora/domain/payments/payments.deps";
import type { Area } from "../area";
import { paymentAdminKinds, paymentAdminRoutes } from "./payments.admin.routes";
import { paymentsDescriptions } from "./payments.docs";
import { paymentRoutes } from "./payments.routes";

/** Payments by transfer, and the administrators' rejections. */
export const paymentsArea: Area<{ payments: PaymentsDeps }> = {
  routes: (deps) => [...paymentRoutes(deps), ...paymentAdminRoutes(deps)],
  adminKinds: paymentAdminKinds,
  descriptions: paymentsDescriptions,
};
