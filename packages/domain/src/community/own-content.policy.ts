import { ValidationError } from "../common/app-error";

/**
 * What a member may do to a moment or comment they can see (docs/safety.md, "Your own content"):
 * its author edits and deletes it; the author of the moment a comment is under may delete that
 * comment too (not edit it). Anyone else is refused (403 `forbidden`). Content the caller cannot
 * see is 404 before this rule is asked, so a refusal never tells that hidden content exists.
 */
export type ContentChange = "edit" | "delete";

export const mayChangeMoment = (facts: { isAuthor: boolean }): boolean => facts.isAuthor;

export const mayChangeComment = (
  change: ContentChange,
  facts: { isAuthor: boolean; isMomentAuthor: boolean },
): boolean => facts.isAuthor || (change === "delete" && facts.isMomentAuthor);

/**
 * Whether a comment is visible to someone other than its author: its author is present and the
 * two do not block each other (the comment list's rule, moment-comments.repository.ts). Its
 * moment's own visibility is checked first (findVisibleMoment).
 */
export const commentVisibleToOthers = (facts: {
  authorPresent: boolean;
  blockedEitherWay: boolean;
}): boolean => facts.authorPresent && !facts.blockedEitherWay;

/**
 * A moment's text after an edit: blank (empty or whitespace only) is no text, kept as null; a
 * moment still needs text, media or both (422 on `body` when it would have neither).
 */
export const editedMomentBody = (body: string, mediaCount: number): string | null => {
  const text = body.trim() ? body : null;
  if (text === null && mediaCount === 0) {
    throw new ValidationError([{ path: "body", message: "a moment needs text, media or both" }]);
  }

  return text;
};
