/** The transaction keys of a launch job: `launch:{job}:b{bundle}:{index}` (index 0 of b0 is the create). */
export const bundleKey = (jobId: string, bundle: number, index: number) =>
  `launch:${jobId}:b${bundle}:${index}`;
export const createKey = (jobId: string) => bundleKey(jobId, 0, 0);
