// Media for channel plugins: downloads capped and streamed, uploads as streamed multipart bodies.
export { capStream, collectBytes, streamOf, type TooLargeExtra, tooLarge } from "./capped-stream.js";
export { downloadMedium, type MediaDownloadOptions } from "./download.js";
export { type MultipartBody, type MultipartPart, multipartBody } from "./multipart.js";
