//! The CUDA launcher, through `cudarc` with its libraries loaded at run time: the driver
//! (libcuda, from the NVIDIA driver) and NVRTC (libnvrtc, from the CUDA toolkit or Python's
//! `nvidia-cuda-nvrtc`). cudarc panics when a library it calls is missing, so each is probed
//! first ([`present`]), and a machine without them gets an error naming what to install.
//!
//! NVRTC compiles the kernel source (the same file as OpenCL's, behind its CUDA prelude) to a
//! CUBIN for the device's own compute capability, not to PTX: the driver refuses PTX from an
//! NVRTC newer than itself (`CUDA_ERROR_UNSUPPORTED_PTX_VERSION`), while a CUBIN needs no JIT.

use std::ffi::{CStr, CString, c_char};
use std::sync::Arc;

use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;

use crate::GpuError;
use crate::launcher::{DeviceInfo, Kernel, Launcher, SOURCE};
use crate::tasks::{MAX_ROWS, Tables as HostTables, Task};

/// What to install for CUDA, in the words of the error for a machine without it.
pub const INSTALL: &str = "install the NVIDIA driver (libcuda.so) and, to compile the kernel, NVRTC \
     (libnvrtc.so from the CUDA toolkit, or pip's nvidia-cuda-nvrtc) on the library path";

/// Returns the [`GpuError::Driver`] of a call into CUDA that failed doing `what`, with the
/// driver's error: `what (error)`.
fn failed<E: std::fmt::Debug>(what: impl std::fmt::Display) -> impl FnOnce(E) -> GpuError {
    move |e| GpuError::Driver(format!("{what} ({e:?})"))
}

/// Returns the [`GpuError::Compile`] of an NVRTC call that failed doing `what`: `what (error)`.
fn nvrtc_failed<E: std::fmt::Debug>(what: impl std::fmt::Display) -> impl FnOnce(E) -> GpuError {
    move |e| GpuError::Compile(format!("{what} ({e:?})"))
}

/// Returns the error of a machine without NVRTC.
fn no_nvrtc() -> GpuError {
    GpuError::Unavailable(format!("no NVRTC could be loaded to compile the kernel: {INSTALL}"))
}

/// Runs `f`, a call into cudarc, turning a panic into an error: cudarc resolves each driver
/// function when it is first called and panics where the library lacks it (an older driver, or
/// a stub libcuda: "Missing symbol cuInit", found by a break-it round), so no call into it
/// runs unguarded. The panic's own message is kept out of stderr while the guard is up (the
/// default hook is swapped for a silent one, under a lock, and put back).
pub(crate) fn guarded<T>(f: impl FnOnce() -> Result<T, GpuError>) -> Result<T, GpuError> {
    static HOOK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _lock = HOOK.lock().unwrap_or_else(|e| e.into_inner());
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(previous);
    result.unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        Err(GpuError::Unavailable(format!(
            "the CUDA libraries here lack what this build needs ({what}): update the NVIDIA driver or NVRTC"
        )))
    })
}

/// Returns whether libcuda can be loaded.
pub fn present() -> bool {
    // SAFETY: only tries to open the library by its usual names; calls nothing in it.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// Returns whether libnvrtc can be loaded.
pub fn nvrtc_present() -> bool {
    // SAFETY: as for `present`.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// Returns every CUDA device, in the driver's order.
///
/// # Errors
/// Why none can be listed: no libcuda, or the driver's own error.
pub(crate) fn list() -> Result<Vec<DeviceInfo>, GpuError> {
    if !present() {
        return Err(GpuError::Unavailable(format!("no CUDA driver could be loaded: {INSTALL}")));
    }
    guarded(list_unguarded)
}

/// [`list`] without its guard.
fn list_unguarded() -> Result<Vec<DeviceInfo>, GpuError> {
    let count = CudaContext::device_count().map_err(failed("the CUDA driver does not answer"))?;
    let mut out = Vec::new();
    for index in 0..count.max(0) as usize {
        let ctx = CudaContext::new(index).map_err(failed(format!("cannot open CUDA device {index}")))?;
        out.push(DeviceInfo {
            api: "cuda",
            index,
            name: ctx.name().unwrap_or_default(),
            platform: match ctx.compute_capability() {
                Ok((major, minor)) => format!("CUDA, compute capability {major}.{minor}"),
                Err(_) => "CUDA".to_string(),
            },
            memory_bytes: ctx.total_mem().unwrap_or(0) as u64,
            compute_units: ctx
                .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
                .unwrap_or(0) as u32,
            gpu: true,
        });
    }
    Ok(out)
}

/// The threads of a block: the work-group size the kernels' stacks are laid out for (NQ_WG).
const THREADS: u32 = 128;

/// A CUDA device ready to count: its context, stream, compiled kernels and buffers.
pub(crate) struct Cuda {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    arch: String,
    /// The kernels (count, classify) without and with NQ_NODES (the second module compiled
    /// when first asked for).
    kernels: [Option<[CudaFunction; 2]>; 2],
    tables: Option<Tables>,
    io: Option<Io>,
    blocks: u32,
    threads: u32,
    /// The tasks and the numbers per task of the launch in flight.
    launched: (usize, usize),
}

/// The constellation tables on the device.
struct Tables {
    table: CudaSlice<u32>,
    rows: CudaSlice<u8>,
    stab: CudaSlice<u8>,
    full: u32,
    n: u32,
}

/// The task and result buffers, with room for `room` tasks.
struct Io {
    room: usize,
    cols: CudaSlice<u32>,
    ld: CudaSlice<u32>,
    rd: CudaSlice<u32>,
    at: CudaSlice<u32>,
    boards: CudaSlice<u8>,
    next: CudaSlice<u32>,
    out: CudaSlice<u64>,
}

impl Cuda {
    /// Opens CUDA device `info.index`: a context, a stream and the kernels compiled by NVRTC.
    pub(crate) fn open(info: &DeviceInfo) -> Result<Cuda, GpuError> {
        if !nvrtc_present() {
            return Err(no_nvrtc());
        }
        guarded(|| Cuda::open_unguarded(info))
    }

    /// [`Cuda::open`] without its guard.
    fn open_unguarded(info: &DeviceInfo) -> Result<Cuda, GpuError> {
        let ctx = CudaContext::new(info.index).map_err(failed("cannot open the device"))?;
        let (major, minor) = ctx.compute_capability().map_err(failed("no compute capability"))?;
        let stream = ctx.default_stream();
        // Persistent threads in blocks of THREADS (the kernels' NQ_WG), as many blocks as the
        // multiprocessors hold at once (the stack's and the table entries' shared memory, 35 KiB
        // a block, limits them), asked of the driver once the kernels are loaded.
        let threads = THREADS;
        let blocks = info.compute_units.max(1) * 8;
        let mut cuda = Cuda {
            ctx,
            stream,
            arch: format!("sm_{major}{minor}"),
            kernels: [None, None],
            tables: None,
            io: None,
            blocks,
            threads,
            launched: (0, 0),
        };
        cuda.compile(false)?;
        let count = &cuda.kernels[0].as_ref().expect("compiled above")[0];
        if let Ok(per_unit) = count.occupancy_max_active_blocks_per_multiprocessor(threads, 0, None)
            && per_unit > 0
        {
            cuda.blocks = info.compute_units.max(1) * per_unit;
        }
        Ok(cuda)
    }

    /// Returns the threads one launch runs at once.
    pub(crate) fn lanes(&self) -> usize {
        (self.blocks * self.threads) as usize
    }

    /// Compiles the kernels (with NQ_NODES if `nodes`) to a CUBIN on first use.
    fn compile(&mut self, nodes: bool) -> Result<(), GpuError> {
        let slot = usize::from(nodes);
        if self.kernels[slot].is_some() {
            return Ok(());
        }
        let cubin = compile_cubin(SOURCE, &options(&self.arch, nodes))?;
        let module =
            self.ctx.load_module(Ptx::from_binary(cubin)).map_err(failed("cannot load the kernels"))?;
        let load =
            |k: Kernel| module.load_function(k.name()).map_err(failed(format!("no kernel {}", k.name())));
        self.kernels[slot] = Some([load(Kernel::Count)?, load(Kernel::Classify)?]);
        Ok(())
    }
}

/// Returns the kernels compiled by NVRTC to a CUBIN for the architecture `arch` (`sm_90` for
/// an H100 or H200), counting placements if `nodes`: what opening a CUDA device does first, and
/// needs no device (only libnvrtc), so that the CUDA side of `kernel.cl` can be checked on a
/// machine without a GPU.
///
/// # Errors
/// [`GpuError::Unavailable`] if there is no NVRTC to load; [`GpuError::Compile`] with NVRTC's
/// log where the kernels do not compile.
pub fn compile(arch: &str, nodes: bool) -> Result<Vec<u8>, GpuError> {
    if !nvrtc_present() {
        return Err(no_nvrtc());
    }
    guarded(|| compile_cubin(SOURCE, &options(arch, nodes)))
}

/// Returns NVRTC's log of compiling the kernels for `arch` with ptxas's report (registers,
/// shared memory and spills of each kernel), counting placements if `nodes`.
///
/// # Errors
/// As [`compile`].
pub fn compile_log(arch: &str, nodes: bool) -> Result<String, GpuError> {
    if !nvrtc_present() {
        return Err(no_nvrtc());
    }
    guarded(|| compile_log_unguarded(arch, nodes))
}

/// [`compile_log`] without its guard.
fn compile_log_unguarded(arch: &str, nodes: bool) -> Result<String, GpuError> {
    use cudarc::nvrtc::result;
    let mut options = options(arch, nodes);
    options.push("--ptxas-options=-v".to_string());
    let src =
        CString::new(SOURCE).map_err(|_| GpuError::Compile("the kernel source holds a NUL byte".into()))?;
    let prog = result::create_program(&src, None).map_err(nvrtc_failed("NVRTC cannot create the program"))?;
    // SAFETY: as in `compile_cubin`: a live program, C-string options, a log sized by NVRTC.
    unsafe {
        let compiled = result::compile_program(prog, &options);
        let log = result::get_program_log(prog).unwrap_or_default();
        let log = CStr::from_ptr(log.as_ptr()).to_string_lossy().trim().to_string();
        let _ = result::destroy_program(prog);
        compiled
            .map(|()| log.clone())
            .map_err(|e| GpuError::Compile(format!("NVRTC does not compile the kernel ({e:?}): {log}")))
    }
}

/// Returns NVRTC's options for the kernels on `arch`.
fn options(arch: &str, nodes: bool) -> Vec<String> {
    let mut options = vec![
        format!("--gpu-architecture={arch}"),
        "-default-device".to_string(),
        format!("-DNQ_WG={THREADS}"),
        format!("-DMAX_DEPTH={}", crate::scheduler::stack_levels()),
    ];
    if nodes {
        options.push("-DNQ_NODES".to_string());
    }
    options
}

/// Returns the CUBIN NVRTC compiles `source` to with `options`.
fn compile_cubin(source: &str, options: &[String]) -> Result<Vec<u8>, GpuError> {
    use cudarc::nvrtc::{result, sys};
    let src =
        CString::new(source).map_err(|_| GpuError::Compile("the kernel source holds a NUL byte".into()))?;
    let prog = result::create_program(&src, None).map_err(nvrtc_failed("NVRTC cannot create the program"))?;
    // SAFETY: `prog` is a live program from create_program; the options are C strings; the log
    // and CUBIN buffers are sized by NVRTC's own size calls before it writes them; the program
    // is destroyed once, at the end.
    unsafe {
        let compiled = result::compile_program(prog, options);
        let out = match compiled {
            Err(e) => {
                let log = result::get_program_log(prog).unwrap_or_default();
                let log = CStr::from_ptr(log.as_ptr()).to_string_lossy().trim().replace('\n', " | ");
                Err(GpuError::Compile(format!("NVRTC does not compile the kernel ({e:?}): {log}")))
            }
            Ok(()) => {
                let mut size = 0usize;
                if sys::nvrtcGetCUBINSize(prog, &mut size).result().is_err() || size == 0 {
                    Err(GpuError::Compile(
                        "NVRTC made no CUBIN (is the architecture a real one, sm_XY?)".into(),
                    ))
                } else {
                    let mut cubin = vec![0u8; size];
                    sys::nvrtcGetCUBIN(prog, cubin.as_mut_ptr() as *mut c_char)
                        .result()
                        .map(|()| cubin)
                        .map_err(nvrtc_failed("NVRTC cannot hand over the CUBIN"))
                }
            }
        };
        let _ = result::destroy_program(prog);
        out
    }
}

impl Launcher for Cuda {
    fn upload(&mut self, tables: &HostTables) -> Result<(), GpuError> {
        guarded(|| self.upload_unguarded(tables))
    }

    fn start(&mut self, kernel: Kernel, tasks: &[Task], boards: &[u8], nodes: bool) -> Result<(), GpuError> {
        guarded(|| self.start_unguarded(kernel, tasks, boards, nodes))
    }

    fn finish(&mut self, out: &mut Vec<u64>) -> Result<(), GpuError> {
        guarded(|| self.finish_unguarded(out))
    }
}

/// The launcher's calls without their guard ([`guarded`]).
impl Cuda {
    fn upload_unguarded(&mut self, tables: &HostTables) -> Result<(), GpuError> {
        let s = &self.stream;
        let copy = |e| failed("cannot copy the tables")(e);
        self.tables = Some(Tables {
            table: s.clone_htod(&tables.table).map_err(copy)?,
            rows: s.clone_htod(&tables.rows).map_err(copy)?,
            stab: s.clone_htod(&tables.stab).map_err(copy)?,
            full: tables.full,
            n: tables.n,
        });
        Ok(())
    }

    fn start_unguarded(
        &mut self,
        kernel: Kernel,
        tasks: &[Task],
        boards: &[u8],
        nodes: bool,
    ) -> Result<(), GpuError> {
        self.compile(nodes)?;
        let (len, width) = (tasks.len(), kernel.width());
        let s = self.stream.clone();
        let alloc = |e| failed(format!("cannot allocate {len} tasks on the device"))(e);
        if self.io.as_ref().is_none_or(|io| io.room < len) {
            let room = len.next_power_of_two().max(1);
            self.io = Some(Io {
                room,
                cols: s.alloc_zeros(room).map_err(alloc)?,
                ld: s.alloc_zeros(room).map_err(alloc)?,
                rd: s.alloc_zeros(room).map_err(alloc)?,
                at: s.alloc_zeros(room).map_err(alloc)?,
                boards: s.alloc_zeros(room * MAX_ROWS).map_err(alloc)?,
                next: s.alloc_zeros(1).map_err(alloc)?,
                out: s.alloc_zeros(room * 5).map_err(alloc)?,
            });
        }
        let io = self.io.as_mut().expect("made above");
        let copy = |e| failed("cannot copy the tasks to the device")(e);
        let column = |f: fn(&Task) -> u32| tasks.iter().map(f).collect::<Vec<u32>>();
        s.memcpy_htod(&column(|t| t.cols), &mut io.cols).map_err(copy)?;
        s.memcpy_htod(&column(|t| t.ld), &mut io.ld).map_err(copy)?;
        s.memcpy_htod(&column(|t| t.rd), &mut io.rd).map_err(copy)?;
        s.memcpy_htod(&column(|t| t.at), &mut io.at).map_err(copy)?;
        if !boards.is_empty() {
            s.memcpy_htod(boards, &mut io.boards).map_err(copy)?;
        }
        s.memcpy_htod(&[0u32], &mut io.next).map_err(copy)?;
        let t = self.tables.as_ref().ok_or_else(|| GpuError::Driver("no tables uploaded".into()))?;
        let pair = self.kernels[usize::from(nodes)]
            .as_ref()
            .ok_or_else(|| GpuError::Driver("the kernel was not compiled".into()))?;
        let function = &pair[usize::from(kernel == Kernel::Classify)];
        let count = len as u32;
        let blocks = self.blocks.min(count.div_ceil(self.threads)).max(1);
        let config =
            LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (self.threads, 1, 1), shared_mem_bytes: 0 };
        let mut launch = s.launch_builder(function);
        launch
            .arg(&io.cols)
            .arg(&io.ld)
            .arg(&io.rd)
            .arg(&io.at)
            .arg(&count)
            .arg(&t.table)
            .arg(&t.rows)
            .arg(&t.stab)
            .arg(&t.full)
            .arg(&t.n)
            .arg(&io.boards)
            .arg(&mut io.next)
            .arg(&mut io.out);
        // SAFETY: the arguments are NQ_ARGS of kernel.cl, in order and of its types (device
        // pointers to u32, u8 and u64, three u32 values); every buffer holds at least `count`
        // tasks (`out` 5 numbers a task, `boards` MAX_ROWS bytes a task) or the whole tables,
        // as the kernels read and write them.
        unsafe { launch.launch(config) }.map_err(failed("cannot launch the kernel"))?;
        self.launched = (len, width);
        Ok(())
    }

    fn finish_unguarded(&mut self, out: &mut Vec<u64>) -> Result<(), GpuError> {
        let (len, width) = self.launched;
        out.clear();
        out.resize(len * width, 0);
        let io = self.io.as_ref().ok_or_else(|| GpuError::Driver("nothing was launched".into()))?;
        if len > 0 {
            let read = |e| failed("the kernel failed or its results cannot be read")(e);
            self.stream.memcpy_dtoh(&io.out.slice(..len * width), out.as_mut_slice()).map_err(read)?;
            self.stream.synchronize().map_err(read)?;
        }
        self.launched = (0, 0);
        Ok(())
    }
}
