// What an export of a session is asked for and what it gives: one Markdown or HTML file (issue 34).
// The same choices come from `baton export --format` and the window's Export dialog.

export const ExportFormats = ["md", "html"] as const;
export type ExportFormat = (typeof ExportFormats)[number];

export interface ExportChoices {
  readonly format: ExportFormat;
  /** Include what tools gave back (their outputs and errors); the calls themselves are always in. */
  readonly toolOutputs: boolean;
  /** Include the model's thinking. */
  readonly thinking: boolean;
}

export const DefaultExportChoices: ExportChoices = { format: "html", toolOutputs: true, thinking: true };

/** The file an export gives: its suggested name, its media type and its text. */
export interface ExportedFile {
  readonly fileName: string;
  readonly mediaType: string;
  readonly text: string;
}

export const ExportMediaTypes: Readonly<Record<ExportFormat, string>> = {
  md: "text/markdown; charset=utf-8",
  html: "text/html; charset=utf-8",
};
