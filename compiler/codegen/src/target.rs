//! The machine to generate code for: a triple (parsed with
//! `target-lexicon`), a CPU and its features, defaulting to the host.

use inkwell::targets::{
    CodeModel, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple,
};
use inkwell::OptimizationLevel;
use target_lexicon::{Architecture, Triple};

use crate::error::{CodegenError, Result};

/// A target: triple, CPU and feature string as LLVM spells them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetSpec {
    pub triple: Triple,
    pub cpu: String,
    pub features: String,
}

impl TargetSpec {
    /// The machine this process runs on, with all its features.
    pub fn host() -> TargetSpec {
        let triple: Triple = TargetMachine::get_default_triple()
            .as_str()
            .to_string_lossy()
            .parse()
            .unwrap_or_else(|_| Triple::host());
        let features = TargetMachine::get_host_cpu_features().to_string();
        TargetSpec {
            triple,
            cpu: TargetMachine::get_host_cpu_name().to_string(),
            features: without_unusable_amx(features),
        }
    }

    /// A target from `--target` (`aarch64`, `x86_64` or a full triple),
    /// with optional `--cpu` and `--features`. A bare architecture means
    /// Linux with glibc; the host's own architecture keeps the host's CPU.
    pub fn parse(
        target: Option<&str>,
        cpu: Option<&str>,
        features: Option<&str>,
    ) -> Result<TargetSpec> {
        let host = TargetSpec::host();
        let triple = match target {
            None => host.triple.clone(),
            Some(t) => {
                let full = if t.contains('-') {
                    t.to_string()
                } else {
                    format!("{t}-unknown-linux-gnu")
                };
                full.parse::<Triple>()
                    .map_err(|e| CodegenError::Target(format!("'{t}': {e}")))?
            }
        };
        let same_arch = triple.architecture == host.triple.architecture;
        let default_cpu = match triple.architecture {
            _ if same_arch => host.cpu.clone(),
            Architecture::Aarch64(_) => "neoverse-n1".to_string(),
            _ => "generic".to_string(),
        };
        let default_features = if same_arch && cpu.is_none() {
            host.features.clone()
        } else {
            String::new()
        };
        let spec = TargetSpec {
            triple,
            cpu: cpu.map(str::to_string).unwrap_or(default_cpu),
            features: features.map(str::to_string).unwrap_or(default_features),
        };
        spec.machine()?;
        Ok(spec)
    }

    /// Whether the target is AArch64.
    pub fn is_aarch64(&self) -> bool {
        matches!(self.triple.architecture, Architecture::Aarch64(_))
    }

    fn has_feature(&self, f: &str) -> bool {
        self.features.split(',').any(|x| x == format!("+{f}"))
    }

    /// What the schedules need to know: vector width and registers.
    pub fn lowering_target(&self) -> onnx_mlc_lowering::schedule::Target {
        use onnx_mlc_lowering::schedule::Target as T;
        let dot_u8s8 = !self.is_aarch64() && self.has_feature("avx512vnni");
        let (vector_bits, vector_registers) = if self.is_aarch64() {
            (128, 32)
        } else if self.has_feature("avx512f") {
            (512, 32)
        } else if self.has_feature("avx2") || self.has_feature("avx") {
            (256, 16)
        } else {
            (128, 16)
        };
        T {
            vector_bits,
            vector_registers,
            dot_u8s8: dot_u8s8 && vector_bits == 512,
            byte_permute: vector_bits == 512 && self.has_feature("avx512vbmi"),
            amx_int8: !self.is_aarch64()
                && self.has_feature("amx-tile")
                && self.has_feature("amx-int8"),
        }
    }

    /// An LLVM target machine for this target (position-independent code,
    /// optimizing).
    pub fn machine(&self) -> Result<TargetMachine> {
        let config = InitializationConfig::default();
        if self.is_aarch64() {
            Target::initialize_aarch64(&config);
        } else {
            Target::initialize_x86(&config);
        }
        let triple = TargetTriple::create(&self.triple.to_string());
        let target =
            Target::from_triple(&triple).map_err(|e| CodegenError::Target(e.to_string()))?;
        target
            .create_target_machine(
                &triple,
                &self.cpu,
                &self.features,
                OptimizationLevel::Aggressive,
                RelocMode::PIC,
                CodeModel::Default,
            )
            .ok_or_else(|| {
                CodegenError::Target(format!(
                    "LLVM cannot target {} with CPU '{}'",
                    self.triple, self.cpu
                ))
            })
    }
}

/// The host's `features` without AMX's tile features when Linux does not
/// let this process use the tiles: their state must be requested
/// (`arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)`, Linux 5.16)
/// before the first tile instruction, which otherwise kills the process.
/// Requesting it here covers the JIT, whose code runs in this process; AOT
/// libraries request it when a session starts (`runtime/c/omlc_rt.c`).
fn without_unusable_amx(features: String) -> String {
    if !features.split(',').any(|f| f == "+amx-tile") || amx_permitted() {
        return features;
    }
    features.replace("+amx-", "-amx-")
}

/// Requests the AMX tile state for this process; whether it is granted.
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn amx_permitted() -> bool {
    const ARCH_REQ_XCOMP_PERM: libc::c_long = 0x1023;
    const XFEATURE_XTILEDATA: libc::c_long = 18;
    // SAFETY: `arch_prctl` with these arguments only changes which XSAVE
    // state the kernel lets this process use; it reads no memory of ours.
    unsafe {
        libc::syscall(
            libc::SYS_arch_prctl,
            ARCH_REQ_XCOMP_PERM,
            XFEATURE_XTILEDATA,
        ) == 0
    }
}

#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
fn amx_permitted() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_from_short_and_full_names() {
        let a = TargetSpec::parse(Some("aarch64"), None, None).unwrap();
        assert_eq!(a.triple.to_string(), "aarch64-unknown-linux-gnu");
        assert_eq!(a.lowering_target().vector_bits, 128);
        let x = TargetSpec::parse(
            Some("x86_64-unknown-linux-gnu"),
            Some("skylake-avx512"),
            Some("+avx512f,+avx2"),
        )
        .unwrap();
        assert_eq!(x.lowering_target().vector_bits, 512);
        assert!(TargetSpec::parse(Some("sparc-nonsense-x"), None, None).is_err());
    }
}
