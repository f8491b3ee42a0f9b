-- Private meetings: a meeting is `open` (listed to and joinable by every member, as before) or
-- `private` (its host and the invitees named at creation only). The flag is stored, not derived
-- from the invitee rows, so a private meeting never turns open when its invitee list is empty.
-- The check is added NOT VALID: validating it would scan the table under its lock, and every
-- existing row holds the default 'open', which it accepts; new and updated rows are checked.
ALTER TABLE "meetings" ADD COLUMN "visibility" TEXT NOT NULL DEFAULT 'open';
ALTER TABLE "meetings"
  ADD CONSTRAINT "meetings_visibility_check" CHECK ("visibility" IN ('open', 'private')) NOT VALID;

CREATE TABLE "meeting_invitees" (
  "meeting_id" UUID NOT NULL,
  "user_id" UUID NOT NULL,
  CONSTRAINT "meeting_invitees_pkey" PRIMARY KEY ("meeting_id", "user_id"),
  CONSTRAINT "meeting_invitees_meeting_id_fkey" FOREIGN KEY ("meeting_id") REFERENCES "meetings" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "meeting_invitees_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
-- The foreign key's lookups from users.
CREATE INDEX "meeting_invitees_user_id_idx" ON "meeting_invitees" ("user_id");
