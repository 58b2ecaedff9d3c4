import type { Attachment, AttachmentKind } from "@chorus/core";
import { type FileParameter, fileParameterSchema, type GeoParameter, geoParameterSchema } from "./wire.js";

/** What `download` needs of a shared file (an attachment's `source`): its id on the server, and where Talk links it. */
export interface NextcloudFileSource {
  /** The file id (`oc:fileid`), the same for every user the file is shared with. */
  fileId: string;
  name: string;
  /** `<server>/f/<id>`: opens the file for a logged-in participant. */
  link?: string;
}

/** A shared folder's type: not a file the bot can download. */
const FOLDER_MIME = "httpd/unix-directory";

/**
 * The attachments of a message, from its rich object parameters (DESIGN §2.6): each shared `file`
 * (its kind from its `mimetype`: Talk shows images, videos and audio by their type) and each
 * shared `geo-location`. A shared folder is no attachment (its name stays in the text).
 */
export function attachmentsOf(parameters: Readonly<Record<string, unknown>>): Attachment[] {
  const attachments: Attachment[] = [];
  for (const value of Object.values(parameters)) {
    const file = fileParameterSchema.safeParse(value);
    if (file.success && file.data.mimetype !== FOLDER_MIME) {
      attachments.push(fromFile(file.data));
      continue;
    }
    const geo = geoParameterSchema.safeParse(value);
    if (geo.success) {
      const location = fromGeo(geo.data);
      if (location) attachments.push(location);
    }
  }
  return attachments;
}

/** Whether a rich object parameter becomes an attachment (its placeholder alone is then no text). */
export function isAttachmentParameter(value: unknown): boolean {
  const file = fileParameterSchema.safeParse(value);
  if (file.success) return file.data.mimetype !== FOLDER_MIME;
  return geoParameterSchema.safeParse(value).success;
}

function fromFile(file: FileParameter): Attachment {
  const source: NextcloudFileSource = {
    fileId: file.id,
    name: file.name,
    ...(file.link ? { link: file.link } : {}),
  };
  const mime = file.mimetype?.toLowerCase();
  return {
    kind: kindOf(mime),
    ...(mime ? { mime } : {}),
    ...(file.size !== undefined && Number.isSafeInteger(file.size) ? { size: file.size } : {}),
    ...(file.name !== "" ? { filename: file.name } : {}),
    ...(file.width !== undefined ? { width: file.width } : {}),
    ...(file.height !== undefined ? { height: file.height } : {}),
    source: { ...source },
  };
}

function kindOf(mime: string | undefined): AttachmentKind {
  if (mime?.startsWith("image/")) return "image";
  if (mime?.startsWith("video/")) return "video";
  if (mime?.startsWith("audio/")) return "audio";
  return "file";
}

/** A location from its `latitude`/`longitude`, else from its `geo:<lat>,<lon>` id; none when neither reads. */
function fromGeo(geo: GeoParameter): Attachment | undefined {
  const uri = /^geo:(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)/iu.exec(geo.id);
  const latitude = geo.latitude ?? (uri ? Number(uri[1]) : undefined);
  const longitude = geo.longitude ?? (uri ? Number(uri[2]) : undefined);
  if (latitude === undefined || longitude === undefined || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    return undefined;
  }
  return { kind: "location", location: { latitude, longitude, ...(geo.name !== "" ? { name: geo.name } : {}) } };
}
