-- Guest receipts by mail: the guest's access capability, sealed (encrypted with a key derived from
-- TOKEN_SECRET) so the outbox can put it in the receipt's link at delivery, and when the guest
-- asked to stop these mails. Both nullable: members' orders, and guest orders placed before this
-- migration, have neither (no receipt is mailed for an order without a sealed capability).
ALTER TABLE "orders" ADD COLUMN "guest_token_sealed" TEXT;
ALTER TABLE "orders" ADD COLUMN "guest_mail_stopped_at" TIMESTAMPTZ(6);
