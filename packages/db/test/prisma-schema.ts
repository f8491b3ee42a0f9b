import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** What the drift check needs to know of `schema.prisma`: tables, columns, indexes. */
export type SchemaColumn = {
  field: string;
  column: string;
  prismaType: string;
  dbType: string;
  nullable: boolean;
};
export type SchemaIndex = { columns: string[]; unique: boolean };
export type SchemaModel = { model: string; table: string; columns: SchemaColumn[]; indexes: SchemaIndex[] };

export const schemaPath = fileURLToPath(new URL("../prisma/schema.prisma", import.meta.url));

const scalarDefaults: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Boolean: "boolean",
  DateTime: "timestamp(3) without time zone",
  Float: "double precision",
  Json: "jsonb",
  Bytes: "bytea",
  Decimal: "numeric(65,30)",
};

const nativeTypes: Record<string, (arg: string | undefined) => string> = {
  Uuid: () => "uuid",
  Text: () => "text",
  Integer: () => "integer",
  SmallInt: () => "smallint",
  BigInt: () => "bigint",
  Boolean: () => "boolean",
  JsonB: () => "jsonb",
  Inet: () => "inet",
  Citext: () => "citext",
  VarChar: (arg) => (arg ? `character varying(${arg})` : "character varying"),
  Char: (arg) => `character(${arg ?? 1})`,
  Timestamptz: (arg) => (arg ? `timestamp(${arg}) with time zone` : "timestamp with time zone"),
  Timestamp: (arg) => (arg ? `timestamp(${arg}) without time zone` : "timestamp without time zone"),
  Date: () => "date",
};

const mapName = (attrs: string): string | undefined => /@map\("([^"]+)"\)/.exec(attrs)?.[1];

const listOf = (text: string): string[] =>
  text
    .split(",")
    .map((part) => part.trim().replace(/\(.*\)$/, ""))
    .filter(Boolean);

export const parseSchema = (text: string = readFileSync(schemaPath, "utf8")): SchemaModel[] => {
  const models: SchemaModel[] = [];
  for (const match of text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const [, model = "", body = ""] = match;
    const lines = body
      .split("\n")
      .map((line) => line.replace(/\/\/.*$/, "").trim())
      .filter(Boolean);
    const columns: SchemaColumn[] = [];
    const indexes: SchemaIndex[] = [];
    let table = model;
    for (const line of lines) {
      if (line.startsWith("@@")) {
        const mapped = /^@@map\("([^"]+)"\)/.exec(line);
        if (mapped?.[1]) {
          table = mapped[1];
        }
        const index = /^@@(id|unique|index)\(\[([^\]]+)\]/.exec(line);
        if (index?.[2]) {
          indexes.push({ columns: listOf(index[2]), unique: index[1] !== "index" });
        }
        continue;
      }
      const field = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!field) {
        continue;
      }
      const [, name = "", type = "", isList, optional, attrs = ""] = field;
      const scalar = scalarDefaults[type];
      if (!scalar) {
        continue; // relation (or enum) field: no column of its own
      }
      const native = /@db\.(\w+)(?:\((\d+)\))?/.exec(attrs);
      const nativeType = native?.[1] ? nativeTypes[native[1]] : undefined;
      if (native?.[1] && !nativeType) {
        throw new Error(`drift check does not know @db.${native[1]} (${model}.${name})`);
      }
      const dbType = `${nativeType ? nativeType(native?.[2]) : scalar}${isList ? "[]" : ""}`;
      columns.push({
        field: name,
        column: mapName(attrs) ?? name,
        prismaType: type,
        dbType,
        nullable: Boolean(optional),
      });
      if (/@id\b/.test(attrs) || /@unique\b/.test(attrs)) {
        indexes.push({ columns: [name], unique: true });
      }
    }
    // Index definitions name fields; translate them to columns.
    const columnOf = new Map(columns.map((column) => [column.field, column.column]));
    models.push({
      model,
      table,
      columns,
      indexes: indexes.map((index) => ({
        ...index,
        columns: index.columns.map((f) => columnOf.get(f) ?? f),
      })),
    });
  }

  return models;
};
