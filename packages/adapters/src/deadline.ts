/**
 * Settles with `work`, or rejects with `onTimeout()` once `ms` have passed, whichever comes first.
 * For outbound calls whose own timeouts are per phase (connect, greeting, socket) or absent: the
 * caller's wait is bounded as a whole. The work itself is not cancelled; its late outcome is
 * ignored (pass an AbortSignal to it as well where the client takes one).
 */
export const withDeadline = async <T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(onTimeout()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
};
