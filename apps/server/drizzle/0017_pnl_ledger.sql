CREATE TABLE "pnl_ledger" (
	"token" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"kind" text NOT NULL,
	"wallet" text NOT NULL,
	"role" text NOT NULL,
	"bnb" numeric(78, 0) NOT NULL,
	"tokens" numeric(78, 0) DEFAULT '0' NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	CONSTRAINT "pnl_ledger_token_tx_hash_log_index_kind_wallet_pk" PRIMARY KEY("token","tx_hash","log_index","kind","wallet")
);
--> statement-breakpoint
CREATE TABLE "pnl_marks" (
	"token" text NOT NULL,
	"block_number" bigint NOT NULL,
	"exit_wei" numeric(78, 0) NOT NULL,
	CONSTRAINT "pnl_marks_token_block_number_pk" PRIMARY KEY("token","block_number")
);
--> statement-breakpoint
CREATE INDEX "pnl_ledger_tx_idx" ON "pnl_ledger" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "chain_txs_bundle_block_idx" ON "chain_txs" USING btree ("block_number") WHERE "chain_txs"."purpose" in ('launch', 'delayed-buy', 'bundle-approve', 'bundle-sell', 'bundle-empty');