import type { Page, PageRequest } from "../common/page";
import type { MomentCounters, UserSummary } from "./community.types";

/** A moment as its author's edit or deletion reads it, locked for the rest of the transaction. */
export type LockedMoment = { id: string; authorId: string; body: string | null };

/** A comment with the facts its edit or deletion is decided from. */
export type CommentFacts = {
  id: string;
  momentId: string;
  authorId: string;
  /** The author of the moment the comment is under (may delete it too). */
  momentAuthorId: string;
  body: string;
  /** Its author is present (author_present: the account is active). */
  authorActive: boolean;
};

/** A text replaced by an edit, kept for moderators (`content_edits`; the report view reads it). */
export type ContentEdit = {
  id: string;
  targetType: "moment" | "comment";
  targetId: string;
  authorId: string;
  /** The text before the edit (a moment's may be null: media only). */
  body: string | null;
  editedAt: Date;
};

/**
 * An author's own changes to their moments and comments, and a user's like taken back
 * (docs/safety.md, "Your own content"). Each write runs in the caller's transaction.
 */
export interface OwnContentRepository {
  /** The moment, its row locked (`FOR UPDATE`) until the transaction ends; null when absent. */
  lockMoment(id: string): Promise<LockedMoment | null>;
  /**
   * Sets the moment's text and `edited_at`; with `hold`, a content filter holds it too (held_at set
   * unless held already). Without it a hold stays: only a moderator releases one.
   */
  updateMomentBody(id: string, body: string | null, at: Date, hold: boolean): Promise<void>;
  /**
   * Deletes the moment: its media are detached and made private (the orphan purge deletes them,
   * docs/media.md), its edits and those of its comments are deleted, and the row goes with its
   * media links, likes, views, comments and legacy moment_reports (cascade). The `reports` rows
   * stay. False when it was gone already.
   */
  deleteMoment(id: string): Promise<boolean>;
  /** The comment and its facts; `lock` locks its row (`FOR UPDATE`). Null when absent. */
  findComment(id: string, options?: { lock?: boolean }): Promise<CommentFacts | null>;
  /** Sets the comment's text and `edited_at`; `hold` as for a moment. */
  updateCommentBody(id: string, body: string, at: Date, hold: boolean): Promise<void>;
  /**
   * Deletes the comment with its edits, and lowers its moment's comment counter in the same
   * statement, only when the row was there (of two deletions racing, the counter moves once).
   */
  deleteComment(id: string): Promise<boolean>;
  /** Keeps the text an edit replaces. */
  recordEdit(edit: ContentEdit): Promise<void>;
  /**
   * Takes the user's like back: the like counter moves in the same statement, only when a like
   * was removed (unliking when not liked changes nothing). The counters after; null: no moment.
   */
  unlike(momentId: string, userId: string): Promise<MomentCounters | null>;
}

/** A mute as its muter lists it. */
export type Mute = { user: UserSummary; createdAt: Date };

/** Mutes: one member's personal filter of another (the muted user is not told). */
export interface MuteRepository {
  /** Records the mute; a second time changes nothing. */
  mute(muterId: string, mutedId: string, at: Date): Promise<void>;
  /** Removes the mute, if any. */
  unmute(muterId: string, mutedId: string): Promise<void>;
  /** The muter's mutes, newest first. */
  list(muterId: string, page: PageRequest): Promise<Page<Mute>>;
}

export type OwnContentRepositories = { ownContent: OwnContentRepository; mutes: MuteRepository };
