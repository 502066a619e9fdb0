import { cancelRuleRoute, pauseRuleRoute, resumeRuleRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import toast from "react-hot-toast";
import { apiFetch } from "../../../lib/api-client.ts";
import { failureText } from "../../../lib/api-error.ts";
import { bundleRulesKey } from "./get-bundle-rules.ts";

export type RuleVerb = "pause" | "resume" | "cancel";

const ROUTES = { pause: pauseRuleRoute, resume: resumeRuleRoute, cancel: cancelRuleRoute };

const FAILED: Record<RuleVerb, string> = {
  pause: "Failed to pause the rule.",
  resume: "Failed to resume the rule.",
  cancel: "Failed to cancel the rule.",
};

/** Pauses, resumes or cancels a rule. Silent: a failure toasts its own sentence and the reason. */
export const setRuleState = (id: string, verb: RuleVerb) =>
  apiFetch(ROUTES[verb], { params: { id }, silent: true });

/** The rule's new state shows at once; the list is read again either way. */
export const useSetRuleState = (address: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, verb }: { id: string; verb: RuleVerb }) => setRuleState(id, verb),
    onError: (error, { verb }) =>
      toast.error(`${FAILED[verb]}\n${failureText(error, "Please try again.")}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: bundleRulesKey(address) }),
  });
};
