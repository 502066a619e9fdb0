import { FourMemeHttpError, FourMemeImageRefusedError } from "./errors.ts";
import { requestFourMeme } from "./requestFourMeme.ts";
import { imgUrlSchema } from "./schemas.ts";
import type { FourMemeAuth, FourMemeClient, FourMemeImage } from "./types.ts";
import { withAccessToken } from "./withAccessToken.ts";

export type UploadTokenImageParameters = FourMemeAuth & { image: FourMemeImage };

/** The image's URL on four.meme, to pass to create as `imgUrl`. */
export type UploadTokenImageReturnType = string;

const path = "/private/token/upload";

/**
 * Uploads the token's image as multipart field `file`. A refusal by four.meme
 * (type, size, ...) is a `FourMemeImageRefusedError` carrying its message.
 *
 * @example
 * const imgUrl = await uploadTokenImage(client, {
 *   account,
 *   image: { bytes, mimeType: "image/png", fileName: "logo.png" },
 * });
 */
export const uploadTokenImage = (
  client: FourMemeClient,
  { image, ...auth }: UploadTokenImageParameters,
): Promise<UploadTokenImageReturnType> =>
  withAccessToken(client, auth, async (accessToken) => {
    const form = new FormData();
    const blob = new Blob([new Uint8Array(image.bytes)], { type: image.mimeType });
    form.append("file", blob, image.fileName);
    try {
      return await requestFourMeme(client, {
        method: "POST",
        path,
        body: form,
        accessToken,
        schema: imgUrlSchema,
      });
    } catch (error) {
      // A refusal, not an outage: four.meme answered and said no.
      if (error instanceof FourMemeHttpError && error.status !== null && error.status < 500) {
        throw new FourMemeImageRefusedError({ path, msg: error.msg, cause: error });
      }
      throw error;
    }
  });
