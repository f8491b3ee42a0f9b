/** PostgreSQL's unique_violation (the same code on PGlite), optionally of one constraint. */
export const isUniqueViolation = (error: unknown, constraint?: string): boolean => {
  if (typeof error !== "object" || error === null) {
    return false;
  }
  const { code, constraint: violated } = error as { code?: unknown; constraint?: unknown };

  return code === "23505" && (constraint === undefined || violated === constraint);
};
