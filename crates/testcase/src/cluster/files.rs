//! Files in the test's temporary folder as values of a wanted `java.io.File` or
//! `java.nio.file.Path` (`--files`, docs/files.md): a file with contents the
//! search chooses, a directory or a name nothing has created yet, where otherwise such a parameter
//! only gets a random name that names nothing. What the statement holds and writes is the
//! factory's and the renderer's; the cluster only offers the creation.

use super::features::ClusterFeature;
use super::walk::Builder;
use super::{ClusterConfig, Creation, TestCluster};
use crate::statement::{FILE, PATH};
use crate::types::JType;

/// `ClusterConfig::files`.
pub(super) struct ScratchFiles;

impl ClusterFeature for ScratchFiles {
    fn enabled(&self, config: &ClusterConfig) -> bool {
        config.files
    }

    fn makes(&self, _b: &Builder<'_>, name: &str) -> bool {
        name == FILE || name == PATH
    }

    fn leading_creations(&self, _c: &TestCluster, _want: &JType, name: &str, out: &mut Vec<Creation>) {
        if name == FILE || name == PATH {
            // First, so that the factory's uniform choice among creations gives it a fair share
            // next to `new File(String)` and the like.
            out.push(Creation::ScratchFile { path: name == PATH });
        }
    }
}
