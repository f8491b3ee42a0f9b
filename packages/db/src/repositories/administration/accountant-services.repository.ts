import type { AccountantServiceRepository } from "@agora/domain/administration/administration.ports";
import { idParam } from "../../ids";
import type { SqlExecutor } from "../../sql";

/** Assignments in raw SQL: the scope checks (order reads, report summaries) run per request. */
export const createAccountantServiceRepository = (db: SqlExecutor): AccountantServiceRepository => ({
  async findServices(accountantId) {
    const { rows } = await db.query<{ id: string; name: string }>(
      `SELECT s.id, s.name FROM accountant_services a JOIN services s ON s.id = a.service_id
        WHERE a.accountant_id = $1 ORDER BY s.name`,
      [accountantId],
      "accountant_services_of",
    );

    return rows.map((row) => ({ id: row.id, name: row.name }));
  },

  async findServiceIdsByAccountants(accountantIds) {
    const { rows } = await db.query<{ accountant_id: string; service_id: string }>(
      `SELECT accountant_id, service_id FROM accountant_services
        WHERE accountant_id = ANY($1::uuid[]) ORDER BY accountant_id, service_id`,
      [[...accountantIds]],
      "accountant_services_of_many",
    );
    const byAccountant = new Map<string, string[]>();
    for (const row of rows) {
      byAccountant.set(row.accountant_id, [...(byAccountant.get(row.accountant_id) ?? []), row.service_id]);
    }

    return byAccountant;
  },

  async replace(accountantId, serviceIds, at) {
    await db.query("DELETE FROM accountant_services WHERE accountant_id = $1", [accountantId]);
    if (serviceIds.length > 0) {
      await db.query(
        `INSERT INTO accountant_services (accountant_id, service_id, assigned_at)
         SELECT $1, service_id, $3 FROM unnest($2::uuid[]) AS service_id`,
        [accountantId, [...serviceIds], at],
      );
    }
  },

  async coversListing(accountantId, listingId) {
    const { rows } = await db.query<{ covered: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM listings l JOIN categories c ON c.id = l.category_id
           JOIN accountant_services a ON a.service_id = c.service_id
          WHERE l.id = $2 AND a.accountant_id = $1) AS covered`,
      [accountantId, idParam(listingId)],
      "accountant_services_covers_listing",
    );

    return rows[0]?.covered ?? false;
  },
});
