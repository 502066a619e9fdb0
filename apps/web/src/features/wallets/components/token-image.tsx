import { apiUrl } from "../../../lib/api-client.ts";

/** A server path loads from the API's origin; a full URL (the launchpad's CDN) as it is. */
const imageSrc = (image: string) => (image.startsWith("/") ? apiUrl(image) : image);

/** The token's logo, or its ticker's first letters when it has none. */
export function TokenImage({
  image,
  ticker,
  size = "md",
}: {
  image: string | null;
  ticker: string;
  size?: "md" | "lg";
}) {
  const box = size === "lg" ? "size-20 text-2xl" : "size-14 text-lg";
  if (image) {
    return (
      <img
        src={imageSrc(image)}
        alt=""
        loading="lazy"
        data-testid="bundle-image"
        className={`${box} shrink-0 rounded-sm object-cover`}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      data-testid="bundle-image-placeholder"
      className={`${box} flex shrink-0 items-center justify-center rounded-sm border border-line-strong bg-raised font-semibold text-faint`}
    >
      {(ticker || "?").slice(0, 2).toUpperCase()}
    </span>
  );
}
