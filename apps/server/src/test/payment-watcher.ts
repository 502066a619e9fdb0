import type { Address } from "viem";
import type { ChainContext } from "../lib/chain-context.ts";
import type { PaymentRow } from "../modules/drafts/drafts.repository.ts";
import { PaymentRepository } from "../modules/payments/payment.repository.ts";
import { PaymentWatcher } from "../modules/payments/payment.watcher.ts";
import { TransactionsRepository } from "../modules/transactions/transactions.repository.ts";
import { TxManager } from "../modules/transactions/tx-manager.ts";
import type { TestApp } from "./app.ts";

/** A payment watcher as a freshly started process builds it (its own transaction manager). */
export const freshWatcher = (
  app: TestApp,
  chain: ChainContext,
  treasury: Address,
  onPaid?: (payment: PaymentRow) => void,
) =>
  new PaymentWatcher(
    new PaymentRepository(app.database.db),
    app.vault,
    chain,
    new TxManager(new TransactionsRepository(app.database.db), chain),
    { treasury, ...(onPaid ? { onPaid } : {}) },
  );
