// A tab id or block id as Baton makes them: what the window takes back from its own storage
// (localStorage can be edited by anyone with the profile); anything else in it is not used.
export const IdPattern = /^[A-Za-z0-9_:.-]{1,200}$/;
