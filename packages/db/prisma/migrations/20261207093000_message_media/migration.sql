-- A chat message's media: up to 5 of its sender's assets uploaded for `message`, in order. An
-- asset is on one record only (the unique index, which also answers "in which message was this
-- asset sent" for the media read policy). The assets stay private: only the conversation's two
-- participants are handed their URLs. Deleting an asset (its owner's account deletion) removes its
-- link; the message keeps its text.
CREATE TABLE "message_media" (
  "message_id" UUID NOT NULL,
  "position" SMALLINT NOT NULL,
  "media_asset_id" UUID NOT NULL,
  CONSTRAINT "message_media_pkey" PRIMARY KEY ("message_id", "position"),
  CONSTRAINT "message_media_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "chat_messages" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "message_media_media_asset_id_fkey" FOREIGN KEY ("media_asset_id") REFERENCES "media_assets" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "message_media_position_check" CHECK ("position" BETWEEN 0 AND 4)
);
CREATE UNIQUE INDEX "message_media_media_asset_id_key" ON "message_media" ("media_asset_id");
