import { defineConfig } from "prisma/config";

// Migrations are applied by our own migrator (src/migrator.ts); this file serves `prisma generate`.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/agora" },
});
