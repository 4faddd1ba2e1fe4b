// A prompt the CLI knows by its block id: the uuid Baton sent it with (the CLI writes it to disk as
// is) or the one its history line has. Other prompt blocks (a queued one's local id) have none yet.
export const PromptUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
