// Saves an exported session where the person keeps files: a download of the text (web mode's
// browser asks or uses its downloads folder; Electron's default for a download is its save dialog),
// so no file is written by Baton's main side and the desktop shell needs nothing of its own.
import type { ExportedFile } from "../../shared/export/exportTypes.js";

export function saveExport(file: ExportedFile, doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.mediaType }));
  const link = doc.createElement("a");
  link.href = url;
  link.download = file.fileName;
  link.rel = "noopener";
  link.style.display = "none";
  doc.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // The download has taken the blob's bytes once the click's task ends.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
