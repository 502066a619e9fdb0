CREATE TABLE "chain_tx_former_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"tx_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chain_tx_former_keys" ADD CONSTRAINT "chain_tx_former_keys_tx_id_chain_txs_id_fk" FOREIGN KEY ("tx_id") REFERENCES "public"."chain_txs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chain_tx_former_keys_tx_idx" ON "chain_tx_former_keys" USING btree ("tx_id");