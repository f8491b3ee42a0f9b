import type { IdGenerator } from "@agora/domain/common/ids";
import type { Sql } from "./sql";

type SeedCategory = { slug: string; name: string };
type SeedService = { slug: string; name: string; description: string; categories: SeedCategory[] };

/** The default catalog: what a fresh installation offers before an admin curates it. */
export const defaultCatalog: SeedService[] = [
  {
    slug: "food-and-drink",
    name: "Food & Drink",
    description: "Restaurants, cafés, home cooks and caterers.",
    categories: [
      { slug: "restaurants", name: "Restaurants" },
      { slug: "cafes", name: "Cafés" },
      { slug: "home-cooking", name: "Home cooking" },
      { slug: "catering", name: "Catering" },
    ],
  },
  {
    slug: "home-services",
    name: "Home services",
    description: "Cleaning, repairs and help around the house.",
    categories: [
      { slug: "cleaning", name: "Cleaning" },
      { slug: "repairs", name: "Repairs" },
      { slug: "gardening", name: "Gardening" },
    ],
  },
  {
    slug: "beauty-and-wellness",
    name: "Beauty & wellness",
    description: "Hair, nails, massage and fitness.",
    categories: [
      { slug: "hair", name: "Hair" },
      { slug: "massage", name: "Massage" },
      { slug: "fitness", name: "Fitness" },
    ],
  },
  {
    slug: "events",
    name: "Events",
    description: "Venues, music, photography and party supplies.",
    categories: [
      { slug: "venues", name: "Venues" },
      { slug: "photography", name: "Photography" },
      { slug: "music", name: "Music" },
    ],
  },
];

export type SeedResult = { servicesAdded: number; categoriesAdded: number };

/**
 * Loads the default catalog. Idempotent: entries are keyed by slug, existing ones (and any
 * admin changes to them) are left alone, so running it again adds only what is missing.
 */
export const seedCatalog = async (
  sql: Sql,
  ids: IdGenerator,
  catalog: SeedService[] = defaultCatalog,
): Promise<SeedResult> =>
  sql.transaction(async (tx) => {
    let servicesAdded = 0;
    let categoriesAdded = 0;
    for (const [serviceIndex, service] of catalog.entries()) {
      const inserted = await tx.query(
        `INSERT INTO services (id, slug, name, description, sort_order) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (slug) DO NOTHING RETURNING id`,
        [ids.next(), service.slug, service.name, service.description, serviceIndex],
      );
      servicesAdded += inserted.rows.length;
      const { rows } = await tx.query<{ id: string }>("SELECT id FROM services WHERE slug = $1", [
        service.slug,
      ]);
      const serviceId = rows[0]?.id;
      if (!serviceId) {
        throw new Error(`service ${service.slug} missing after insert`);
      }
      for (const [categoryIndex, category] of service.categories.entries()) {
        const added = await tx.query(
          `INSERT INTO categories (id, service_id, slug, name, sort_order) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (slug) DO NOTHING RETURNING id`,
          [ids.next(), serviceId, category.slug, category.name, categoryIndex],
        );
        categoriesAdded += added.rows.length;
      }
    }

    return { servicesAdded, categoriesAdded };
  });
