/**
 * The `operationId` of every documented operation, by `METHOD path`: what generated SDKs name their
 * methods (`client.authLogin()`, `client.adminOrdersTransition()`). Area first, then what it does
 * (`List`, `Get`, `Create`, `Update`, `Delete`, or the action's own verb). Part of the public
 * contract: renaming one breaks generated clients, so an id never changes once published. The
 * document refuses to build while a route has no id here or an id names no route.
 */
export const operationIds: Readonly<Record<string, string>> = {
  // Admin console
  "GET /api/v1/admin/overview": "adminOverview",
  "GET /api/v1/admin/exports/reports.csv": "adminReportsExportCsv",
  "GET /api/v1/admin/audit": "adminAuditList",
  "GET /api/v1/admin/accountants/{id}/services": "adminAccountantServicesGet",
  "PUT /api/v1/admin/accountants/{id}/services": "adminAccountantServicesPut",
  "GET /api/v1/reports/summary": "reportsSummary",
  "GET /api/v1/admin/{kind}": "adminCollectionList",
  "PATCH /api/v1/admin/{kind}/{id}/status": "adminStatusUpdate",
};
