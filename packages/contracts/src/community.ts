import { z } from "zod";

/** The answer of a block or an unblock: whom, and whether the caller now blocks them. */
export const blockStateSchema = z
  .object({
    user_id: z.string(),
    blocked: z.boolean().meta({ description: "true after a block, false after an unblock." }),
  })
  .meta({ id: "BlockState" });
export type BlockStateDto = z.infer<typeof blockStateSchema>;
