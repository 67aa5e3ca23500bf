//! Smart goal selection (paper 002, Zhou et al.; digest `002-smart-selection.md` §3): of the goals
//! of the eight combined criteria, which ones guide the search and which are deferred.
pub mod table;
