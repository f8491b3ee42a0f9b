import { AppError, ValidationError } from "@agora/domain/shared/app-error";

export type PageRequest = { limit: number; offset: number };

const integer = /^-?\d+$/;

/**
 * limit/offset from the query string. A value that is not an integer is 400 invalid_pagination
 * where `nonIntegerIs400` (listing search, per SPEC), else 422; an integer out of range is 422.
 */
export const parsePage = (
  query: { limit?: string | undefined; offset?: string | undefined },
  options: { defaultLimit: number; maxLimit?: number; nonIntegerIs400: boolean },
): PageRequest => {
  const maxLimit = options.maxLimit ?? 100;
  const read = (name: "limit" | "offset", fallback: number, min: number, max: number): number => {
    const raw = query[name];
    if (raw === undefined || raw === "") {
      return fallback;
    }
    if (!integer.test(raw.trim())) {
      if (options.nonIntegerIs400) {
        throw new AppError("invalid_pagination", `${name} must be an integer.`, {
          details: [{ path: name, message: "must be an integer" }],
        });
      }
      throw new ValidationError([{ path: name, message: "must be an integer" }]);
    }
    const value = Number(raw);
    if (value < min || value > max) {
      throw new ValidationError([
        {
          path: name,
          message:
            max === Number.MAX_SAFE_INTEGER ? `must be ${min} or more` : `must be from ${min} to ${max}`,
        },
      ]);
    }

    return value;
  };

  return {
    limit: read("limit", options.defaultLimit, 1, maxLimit),
    offset: read("offset", 0, 0, Number.MAX_SAFE_INTEGER),
  };
};
