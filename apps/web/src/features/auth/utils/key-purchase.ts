import { type StartKeyPaymentResponse, startKeyPaymentRoute } from "@bundler/shared";

/** localStorage key of the key purchase this browser has open (no secret: the id and address). */
export const KEY_PURCHASE_KEY = "keyPurchase";

/** What the server answered when the purchase opened; kept until the key is in hand. */
export type KeyPurchase = Omit<StartKeyPaymentResponse, "success">;

const purchaseSchema = startKeyPaymentRoute.response.omit({ success: true });

type Storage_ = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/**
 * The open purchase, so a reload (or a closed tab) during the payment picks it up again: the
 * key is answered only to the status poll, and a payment nobody polls for would be lost.
 */
export function loadKeyPurchase(
  storage: Pick<Storage, "getItem"> = localStorage,
): KeyPurchase | null {
  try {
    const raw = storage.getItem(KEY_PURCHASE_KEY);
    if (!raw) return null;
    const parsed = purchaseSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveKeyPurchase(
  purchase: KeyPurchase,
  storage: Pick<Storage_, "setItem"> = localStorage,
): void {
  try {
    storage.setItem(KEY_PURCHASE_KEY, JSON.stringify(purchase));
  } catch {
    // Storage blocked: the purchase works for as long as this page stays open.
  }
}

export function clearKeyPurchase(storage: Pick<Storage_, "removeItem"> = localStorage): void {
  try {
    storage.removeItem(KEY_PURCHASE_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}
